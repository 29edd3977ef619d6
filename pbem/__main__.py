"""`python -m pbem ...`: the same command line as `pbem ...`."""

from pbem.cli import main

if __name__ == "__main__":
    main()
