"""The Kanaloa table in the desktop simulator: a pygame window played with the mouse."""
