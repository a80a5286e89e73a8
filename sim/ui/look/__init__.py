"""How the client looks, decided once: the sizes of one UI scale (`metrics`) and the colours
(`palette`, Okabe-Ito, every overlay kept apart for protanopia, deuteranopia and tritanopia,
which `vision` simulates). No pygame: both the drawing and the answers of what is shown read it.
"""
