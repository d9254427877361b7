package main

var runDrawLeague = unavailable("draw league")
