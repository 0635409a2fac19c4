"""The rule families, one module each; `pseudo.registry` lists them in the order they run."""
