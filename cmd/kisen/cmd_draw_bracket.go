package main

var runDrawBracket = unavailable("draw bracket")
