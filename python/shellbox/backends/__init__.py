"""Machine backends; each lives in its own subpackage."""
