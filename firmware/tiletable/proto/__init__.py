"""Serial link framing and messages, shared by the device and the host tool (pure Python)."""
