"""Bot versions: safe unpacking of uploaded archives, storage, quotas and validation."""
