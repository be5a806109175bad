"""Loopback fakes of the chat platforms, speaking their real protocols to the real SDKs."""
