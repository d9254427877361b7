package main

var runRulesPerft = unavailable("rules perft")
