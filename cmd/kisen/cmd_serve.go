package main

var runServe = unavailable("serve")
