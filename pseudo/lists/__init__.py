"""Gazetteers: locale packs, weighted lists, location trees and fuzzy lookup."""
