# check.rb -- create/tick/finish through Ruby's sqlite3 gem (ruby-sqlite3);
# prints what tests/bindings/run.sh compares.
#   ruby check.rb build/triggers
require 'sqlite3'

ext = ARGV[0] or abort 'usage: ruby check.rb EXTENSION'
db = SQLite3::Database.new(':memory:')
db.enable_load_extension(true)
db.load_extension(ext)
db.enable_load_extension(false)
db.execute('SELECT trigger_install()')
db.execute(<<~SQL)
  INSERT INTO triggers(trigger_id, agent_id, instructions,
                       trigger_type, interval_ms, created_at)
  VALUES ('check', 'a1', 'Check the build', 'interval', 60000, 1767225600000)
SQL
run_id = db.get_first_value(
  "SELECT json_extract(value, '$.run_id') " \
  'FROM json_each(trigger_run_due(1767225660000))'
)
count = db.get_first_value(
  "SELECT json_extract(trigger_run_finish(?, 'success', NULL, ?), " \
  "'$.run_count')", [run_id, 1_767_225_661_000]
)
status = db.get_first_value('SELECT status FROM trigger_runs WHERE run_id = ?',
                            [run_id])
puts "version=#{db.get_first_value('SELECT trigger_version()')}"
puts "run_id=#{run_id}", "run_count=#{count}", "status=#{status}"
db.close
