"""The local backend: one persistent bubblewrap sandbox per machine."""
