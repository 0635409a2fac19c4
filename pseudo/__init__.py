"""Rule-based pseudonymisation of tagged sensitive spans, driven by gazetteers."""

__version__ = "0.1.0"
