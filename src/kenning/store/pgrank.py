"""How PostgreSQL ranks a keyword match, in one place: the engine's search
(``kenning.store.postgres``) and the prompt hook's fallback on a PostgreSQL store whose prompt
index is out of date (``kenning.hooks.pgcontext``) rank alike. A module of its own, with no
imports: the hook pays nothing for it."""

# The weights of the four parts of a memory's text vector: tags D, content C, summary B, topic A.
POSTGRES_RANK = "ts_rank('{0.5, 0.5, 0.75, 1.0}', m.fts, q.q)"
