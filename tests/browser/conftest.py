"""The demo notebooks here are opened by the browser test, not run by nbval."""

collect_ignore_glob = ["*.ipynb"]
