"""What the screen shows and what an input would do, as answers (no pygame): the scene a frame
asks about, the view state, the input mode and what a click would decide (`intent`), the Esc
menu's lines, the game session with undo and saves, a save played back (`tape`), the move
planner, the action bar's content, the result markers and the decisions a click holds back
for a second one (`risk`). Testable without a window.
"""
