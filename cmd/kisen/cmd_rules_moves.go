package main

var runRulesMoves = unavailable("rules moves")
