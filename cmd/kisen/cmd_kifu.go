package main

var runKifu = unavailable("kifu")
