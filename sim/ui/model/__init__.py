"""What the screen shows and what an input would do, as answers (no pygame): the scene a frame
asks about, the view state, the input mode and what a click would decide (`intent`), the Esc
menu's lines, the game session with undo and saves, a save played back (`tape`), the move
planner, the action bar's content and the result markers. Testable without a window.
"""
