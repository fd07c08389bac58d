"""SV-COMP's formats: task definitions and property files, witnesses 2.0, BenchExec's tool-info."""
