"""Command groups of the ``kenning`` CLI, one module per area; each defines ``register(app)``.
Modules import only typer and ``kenning.cliutil`` at the top so ``kenning --help`` stays fast."""
