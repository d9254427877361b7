package main

var runAdjudicate = unavailable("adjudicate")
