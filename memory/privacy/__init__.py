"""Privacy: secret redaction, consent, export, forgetting and user deletion."""
