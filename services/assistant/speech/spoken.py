"""Spoken sentences made by Debian's espeak-ng (resampled by sox) for tests and benchmarks.

Not used at run time: the assistant only hears what phones send. Each result is 16 kHz
mono 16-bit little-endian PCM, the ``voice`` message's samples.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass

# Voices and speeds the spoken sets cycle through: two accents, male and female variants.
VOICES = ("en-us", "en-gb", "en-us+m3", "en-gb+f2", "en-us+f3", "en-gb-x-rp", "en-us+m7")
SPEEDS = (130, 145, 160, 175, 190)


@dataclass(frozen=True, slots=True)
class Spoken:
    """One sentence as said by one voice at one speed (words per minute)."""

    text: str
    voice: str
    speed: int
    pcm: bytes


def available() -> bool:
    """Whether espeak-ng and sox are installed."""
    return bool(shutil.which("espeak-ng") and shutil.which("sox"))


def speak(text: str, voice: str = "en-us", speed: int = 160, pad: float = 0.0) -> bytes:
    """``text`` as 16 kHz PCM, with ``pad`` seconds of silence before and after."""
    wav = subprocess.run(
        ["espeak-ng", "-v", voice, "-s", str(speed), "--stdout", text],
        capture_output=True,
        check=True,
    ).stdout
    command = ["sox", "-q", "-t", "wav", "-", "-t", "raw", "-r", "16000", "-c", "1", "-b", "16"]
    command += ["-e", "signed-integer", "-L", "-"]
    if pad:
        command += ["pad", str(pad), str(pad)]
    return subprocess.run(command, input=wav, capture_output=True, check=True).stdout


def speak_wav(
    text: str, path: str, voice: str = "en-us", speed: int = 160, pad: float = 0.0
) -> None:
    """``text`` as a 16 kHz mono WAV file (for Chromium's fake microphone)."""
    wav = subprocess.run(
        ["espeak-ng", "-v", voice, "-s", str(speed), "--stdout", text],
        capture_output=True,
        check=True,
    ).stdout
    command = ["sox", "-q", "-t", "wav", "-", "-r", "16000", "-c", "1", "-b", "16", path]
    if pad:
        command += ["pad", str(pad), str(pad)]
    subprocess.run(command, input=wav, check=True)


def spoken_set(texts: list[str]) -> list[Spoken]:
    """Each text said once, voices and speeds taken in turn so that every pair is met."""
    said = []
    for index, text in enumerate(texts):
        voice = VOICES[index % len(VOICES)]
        speed = SPEEDS[(index // len(VOICES) + index) % len(SPEEDS)]
        said.append(Spoken(text, voice, speed, speak(text, voice, speed)))
    return said
