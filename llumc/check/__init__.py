"""`llumc check`: the portfolio that turns an encoding into a verdict, and the native replay
that every FALSE rests on."""
