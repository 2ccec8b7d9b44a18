"""A group's all-time table as plain Python (no Django): standings, records, heroes, ratings."""
