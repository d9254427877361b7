package main

var runRating = unavailable("rating")
