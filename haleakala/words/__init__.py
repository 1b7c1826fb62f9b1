"""Game words: the one place a decision or an event becomes words for people.

``moves`` turns a decision and the events it caused into sentences of what happened, for
the terminal, the simulator's log, the web view and the companion's journal alike;
``labels`` (short labels for options and proposals) lives beside it. Kept apart from
``rules`` so the engine stays free of presentation, and in one package so no front end
writes a second copy of the same sentences.
"""
