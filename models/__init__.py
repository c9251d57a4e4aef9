"""Model loading: chat and embedding models chosen by a spec string, loaded once per process."""
