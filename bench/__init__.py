"""The load benchmark (`bench/run.py`) and the soak (`bench/soak.py`), in modules by what each
part owns (see run.py's docstring); bench/servers.py also starts the tests' real servers."""
