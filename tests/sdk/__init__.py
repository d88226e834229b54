"""The SDK's own parts: the lazily built state a bot receives, the stream reader."""
