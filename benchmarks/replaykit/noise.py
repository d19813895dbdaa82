"""Seeded filler sessions: ordinary days of work in which nothing worth keeping happens (small
talk, reading files, a status check, a command that fails for an unrelated reason). They are
inserted between a story's authored sessions, so that capture is tested against noise, decay
against idle days, and the session count reaches a realistic volume."""

from __future__ import annotations

import random
from dataclasses import replace

from replaykit.story import Bash, Event, Read, Say, Session, Story, User, Write

GREETINGS = (
    "morning! coffee's kicking in, let's get going",
    "hey, back after the long weekend. anything on fire?",
    "hi, quick one before standup",
    "hello again. the CI queue is slow today, so let's do something small",
    "afternoon. I only have half an hour, nothing big please",
    "yo. did you see the retro notes? anyway, small thing today",
)
ASKS = (
    "can you remind me what's in {path}?",
    "take a look at {path} and tell me if anything stands out",
    "what does {path} do again? I forgot",
    "could you skim {path}, I want to refactor it later",
)
SMALL = (
    "can you jot down a todo list for tomorrow in {note}? just three bullets",
    "put today's meeting notes in {note}, nothing fancy",
)
REPLIES = (
    "Sure, here's a quick summary.",
    "Done. Nothing unusual there.",
    "Looks fine to me; nothing stands out.",
    "Here you go.",
)
THANKS = ("thanks!", "cool, thanks", "great, that's all for now", "perfect, ttyl", "ok ty")
STATUS = (
    ("git status", "On branch main\nnothing to commit, working tree clean"),
    ("git log --oneline -5", "3f2a1c9 Tidy imports\n9b8e771 Update changelog\n"
                             "5c0d2aa Bump version\n1e4f6b3 Fix typo in README\n"
                             "8a7d9c2 Initial commit"),
    ("git stash list", ""),
    ("git branch --show-current", "main"),
)
UNRELATED_FAILURES = (
    ("gti status", "/bin/bash: line 1: gti: command not found", 127),
    ("curl -s http://localhost:9999/health", "", 7),
    ("cat .env.local", "cat: .env.local: No such file or directory", 1),
    ("ls build/", "ls: cannot access 'build/': No such file or directory", 2),
)


def noise_session(rng: random.Random, day: float, files: list[str], tag: str,
                  long: bool) -> Session:
    """One filler session on ``day`` touching ``files`` (paths that exist at that point)."""
    events: list[Event] = [User(f"{rng.choice(GREETINGS)}. {rng.choice(ASKS)}".format(
        path=rng.choice(files)))]
    rounds = rng.randint(5, 8) if long else rng.randint(1, 3)
    for i in range(rounds):
        path = rng.choice(files)
        choice = rng.random()
        if choice < 0.35:
            events += [Read(path), Say(rng.choice(REPLIES))]
        elif choice < 0.6:
            command, out = rng.choice(STATUS)
            events.append(Bash(command, out=out, description="Check the repository"))
        elif choice < 0.75:
            command, out, code = rng.choice(UNRELATED_FAILURES)
            events.append(Bash(command, out=out, ok=False, exit=code))
            events.append(Say("That failed for an unrelated reason; moving on."))
        else:
            note = f"notes/{tag}-{i}.md"
            events.append(User(rng.choice(SMALL).format(note=note)))
            events.append(Write(note, f"# Notes\n\n- item {i + 1}\n- follow up\n- review\n"))
            events.append(Say("Written."))
        if rng.random() < 0.4:
            events.append(User(rng.choice(ASKS).format(path=rng.choice(files))))
    events.append(User(rng.choice(THANKS)))
    return Session(day=day, events=tuple(events), noise=True, generated=True)


def with_noise(story: Story, per_story: int, seed: int = 7) -> Story:
    """``story`` with ``per_story`` filler sessions placed in the gaps between its sessions
    (never before the first one); every third is a long one."""
    if per_story <= 0 or len(story.sessions) < 2:
        return story
    rng = random.Random(f"{seed}:{story.id}")
    files = sorted(story.project.files)
    gaps = [i for i in range(len(story.sessions) - 1)
            if story.sessions[i + 1].day - story.sessions[i].day >= 0.1]
    if not gaps:
        return story
    placed: dict[int, int] = {}
    for _ in range(per_story):
        gap = rng.choice(gaps)
        placed[gap] = placed.get(gap, 0) + 1
    out: list[Session] = []
    made = 0
    for i, session in enumerate(story.sessions):
        out.append(session)
        count = placed.get(i, 0)
        if not count:
            continue
        start, end = session.day, story.sessions[i + 1].day
        for j in range(count):
            day = start + (end - start) * (j + 1) / (count + 1)
            out.append(noise_session(rng, day, files, f"n{made}", long=made % 3 == 2))
            made += 1
    return replace(story, sessions=tuple(out))
