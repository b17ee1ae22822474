"""The browser test (JupyterLab in Chromium) and its harness."""
