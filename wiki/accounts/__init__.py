"""Logging in and out, password change and reset: the wiki's own screens over ``django.contrib.auth``."""
