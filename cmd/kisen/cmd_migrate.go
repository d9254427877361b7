package main

var runMigrate = unavailable("migrate")
