"""Secret redaction: what never reaches a file, a checkpoint or a store (used by stores/, nodes/ and graph/)."""
