"""Persistence: database engine, SQLModel tables and the append-only event log."""
