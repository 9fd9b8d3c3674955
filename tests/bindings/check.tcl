# check.tcl -- create/tick/finish through Tcl's sqlite3 package
# (libsqlite3-tcl); prints what tests/bindings/run.sh compares.
#   tclsh check.tcl build/triggers
package require sqlite3
set ext [lindex $argv 0]
sqlite3 db :memory:
db enable_load_extension 1
db eval {SELECT load_extension($ext)}
db enable_load_extension 0
db eval {SELECT trigger_install()}
db eval {INSERT INTO triggers(trigger_id, agent_id, instructions,
                              trigger_type, interval_ms, created_at)
         VALUES ('check', 'a1', 'Check the build', 'interval', 60000,
                 1767225600000)}
set run_id [db onecolumn {SELECT json_extract(value, '$.run_id')
                          FROM json_each(trigger_run_due(1767225660000))}]
set count [db onecolumn {SELECT json_extract(trigger_run_finish(
                           $run_id, 'success', NULL, 1767225661000),
                           '$.run_count')}]
set status [db onecolumn {SELECT status FROM trigger_runs
                          WHERE run_id = $run_id}]
puts "version=[db onecolumn {SELECT trigger_version()}]"
puts "run_id=$run_id\nrun_count=$count\nstatus=$status"
db close
