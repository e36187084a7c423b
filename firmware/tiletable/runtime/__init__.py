"""Table runtime: services between the drivers and the engine (tray, ui, journal, link)."""
