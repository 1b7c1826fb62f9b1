import sys
from pathlib import Path

# Test helpers live beside the tests (tests/support/…).
sys.path.insert(0, str(Path(__file__).parent))
