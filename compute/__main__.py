import sys

from compute.cli import main

sys.exit(main())
