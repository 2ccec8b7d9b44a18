"""Infrastructure under the app, importing nothing of it: the hot statements (fastsql.py), the
database threads (dbthread.py), the fail-safe cache (cache.py), log redaction (logs.py), static
files (staticstorage.py) and what `play` needs (netinfo.py, qr.py, tls.py)."""
