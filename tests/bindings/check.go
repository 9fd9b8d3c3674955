// check.go -- create/tick/finish through Go's database/sql and
// github.com/mattn/go-sqlite3 (Debian's golang-github-mattn-go-sqlite3-dev,
// built offline in GOPATH mode against the system libsqlite3); prints what
// tests/bindings/run.sh compares.
//
//	go run check.go build/triggers
package main

import (
	"database/sql"
	"fmt"
	"os"

	sqlite3 "github.com/mattn/go-sqlite3"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: check EXTENSION")
		os.Exit(2)
	}
	// Every connection of the pool loads the extension.
	sql.Register("sqlite3_triggers", &sqlite3.SQLiteDriver{
		Extensions: []string{os.Args[1]},
	})
	db, err := sql.Open("sqlite3_triggers", ":memory:")
	check(err)
	defer db.Close()
	db.SetMaxOpenConns(1) // one :memory: database
	_, err = db.Exec("SELECT trigger_install()")
	check(err)
	_, err = db.Exec(`INSERT INTO triggers(trigger_id, agent_id, instructions,
	                                       trigger_type, interval_ms, created_at)
	                  VALUES ('check', 'a1', 'Check the build', 'interval', 60000,
	                          1767225600000)`)
	check(err)
	var version, runID, status string
	var count int64
	check(db.QueryRow("SELECT trigger_version()").Scan(&version))
	check(db.QueryRow(`SELECT json_extract(value, '$.run_id')
	                   FROM json_each(trigger_run_due(1767225660000))`).Scan(&runID))
	check(db.QueryRow(`SELECT json_extract(trigger_run_finish(?, 'success', NULL, ?),
	                                       '$.run_count')`,
		runID, int64(1767225661000)).Scan(&count))
	check(db.QueryRow("SELECT status FROM trigger_runs WHERE run_id = ?",
		runID).Scan(&status))
	fmt.Printf("version=%s\nrun_id=%s\nrun_count=%d\nstatus=%s\n",
		version, runID, count, status)
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "check.go:", err)
		os.Exit(1)
	}
}
