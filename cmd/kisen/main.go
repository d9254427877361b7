// Command kisen is the one binary of Kisen (棋戦): the web server and every
// engine as a subcommand that reads and writes JSON.
//
// Exit codes: 0 success, 1 valid input but no answer exists, 2 bad input.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// env is what a subcommand may touch: its arguments and the three streams.
// Subcommands never call os.Exit or read os.Args themselves, so tests can
// drive them in-process.
type env struct {
	args   []string
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	getenv func(string) string
}

// command runs one subcommand and returns the process exit code.
type command func(ctx context.Context, e env) int

// commands is the table of subcommands; each lives in its own cmd_*.go file.
func commands() map[string]command {
	return map[string]command{
		"serve":      runServe,
		"migrate":    runMigrate,
		"rules":      runRules,
		"kifu":       runKifu,
		"draw":       runDraw,
		"standings":  runStandings,
		"adjudicate": runAdjudicate,
		"rating":     runRating,
		"backup":     runBackup,
		"restore":    runRestore,
	}
}

const usage = `usage: kisen <command> [flags]

commands:
  serve        start the web server
  migrate      up | down | status: database migrations
  rules        perft | moves: the shogi rules engine
  kifu         check | convert: game records (KIF, KI2, CSA, USI)
  draw         bracket | league | swiss | pools | final | ranking-groups: draws and schedules (JSON on stdin)
  standings    swiss | pools: a class's standings from its results (JSON on stdin)
  adjudicate   decide one game's outcome (JSON on stdin)
  rating       recompute ratings
  backup       copy the database to a file (SQLite online copy, or pg_dump)
  restore      restore a backup into an empty database

Run 'kisen <command> -h' for the flags of a command.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, env{args: os.Args[1:], stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv})
	stop()
	os.Exit(code)
}

func run(ctx context.Context, e env) int {
	if len(e.args) == 0 {
		fmt.Fprint(e.stderr, usage)
		return 2
	}
	name := e.args[0]
	if name == "-h" || name == "--help" || name == "help" {
		fmt.Fprint(e.stdout, usage)
		return 0
	}
	cmd, ok := commands()[name]
	if !ok {
		fmt.Fprintf(e.stderr, "kisen: unknown command %q\n\n%s", name, usage)
		return 2
	}
	return cmd(ctx, e.sub())
}

// subcommand dispatches "kisen <group> <sub> …" to a table of subcommands.
func subcommand(ctx context.Context, e env, group string, subs map[string]command) int {
	if len(e.args) == 0 {
		fmt.Fprintf(e.stderr, "kisen %s: missing subcommand (one of %s)\n", group, keys(subs))
		return 2
	}
	cmd, ok := subs[e.args[0]]
	if !ok {
		fmt.Fprintf(e.stderr, "kisen %s: unknown subcommand %q (one of %s)\n", group, e.args[0], keys(subs))
		return 2
	}
	return cmd(ctx, e.sub())
}

// sub is e with its first argument consumed.
func (e env) sub() env {
	e.args = e.args[1:]
	return e
}

// lookupEnv reads an environment variable (none when the test gave no getenv).
func (e env) lookupEnv(key string) string {
	if e.getenv == nil {
		return ""
	}
	return e.getenv(key)
}
