"""``haleakala bench speech``: how soon the companion is heard, and what speaking costs.

The events are a scripted game's decisions as the narrator says them at the ``events``
verbosity (the short forms, eruptions and scorings in full), in English, German and French
in turn. Each is handed to a real ``Voice`` (the engine timed, a recording output: what the
loudspeaker would be handed), one after another: the latency is from ``say`` to the first
sample handed to the output, the CPU is the engine's processes' and this process's, per event.
"""

from __future__ import annotations

import argparse
import os
import time

from haleakala import i18n
from haleakala.ai.stats import percentile
from haleakala.companion.autoplay import choose
from haleakala.companion.narrator import sentence
from haleakala.games.haleakala import Game
from haleakala.games.haleakala.words import moves
from haleakala.games.haleakala.words import speech as S
from haleakala.hal.audio import SimAudio
from haleakala.speech.engine import make_engine
from haleakala.speech.settings import Settings
from haleakala.speech.voice import Utterance, Voice


def events(count: int, seed: int = 7) -> list[tuple[str, str]]:
    """(language, sentence) of a scripted game's decisions, the languages in turn."""
    game = Game("base", seed, "red")
    out: list[tuple[str, str]] = []
    languages = i18n.LANGUAGES
    while len(out) < count:
        if game.is_terminal():
            game = Game("base", seed := seed + 1, "red")
        before, mover = game.clone(), game.decider
        code = choose(game, seed)
        happened = list(game.apply(code))
        language = languages[len(out) % len(languages)]
        i18n.use(language)
        short = S.short_decision(before, mover, code, happened)
        said = sentence(short) if short is not None else ""
        said = said or sentence(*moves.describe_move(before, mover, code, happened))
        out.append((language, said))
    i18n.use(i18n.DEFAULT)
    return out


def run(args: argparse.Namespace) -> int:
    count = args.events or 150
    engine = make_engine(args.engine, piper_voices=getattr(args, "piper_voices", ""))
    said = events(count)
    audio = SimAudio(history=None)
    voice = Voice(engine, audio, Settings("everything", 60)).start()
    if voice.troubles:
        for trouble in voice.troubles:
            print(f"speech trouble: {trouble.detail}")
        if voice.silent:
            return 1
    cpu0, children0, start = time.process_time(), _children(), time.perf_counter()
    by_language: dict[str, list[float]] = {}
    for i, (language, text) in enumerate(said):
        before = len(voice.latencies)
        voice.say(Utterance(f"bench/{i}", text, language))
        voice.wait_idle(60)
        if len(voice.latencies) > before:
            by_language.setdefault(language, []).append(voice.latencies[-1])
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu0 + _children() - children0
    voice.close()
    latencies = voice.latencies
    audio_s = sum(len(s.samples) / (s.pcm.rate * s.pcm.width) for s in audio.spoken)
    print(f"engine: {engine.name}")
    print(f"events_said: {voice.said}")
    print(f"failed: {voice.failed}")
    print(f"first_sample_ms_p50: {percentile(latencies, 0.5) * 1000:.1f}")
    print(f"first_sample_ms_p99: {percentile(latencies, 0.99) * 1000:.1f}")
    print(f"first_sample_ms_max: {max(latencies, default=0.0) * 1000:.1f}")
    for language, values in sorted(by_language.items()):
        print(f"first_sample_ms_p99_{language}: {percentile(values, 0.99) * 1000:.1f}")
    print(f"cpu_ms_per_event: {cpu / max(1, voice.said) * 1000:.1f}")
    print(f"audio_s_per_event: {audio_s / max(1, voice.said):.2f}")
    print(f"elapsed_s: {elapsed:.1f}")
    print(f"load_average_1min: {os.getloadavg()[0]:.1f}")
    return 0


def _children() -> float:
    times = os.times()
    return times.children_user + times.children_system
