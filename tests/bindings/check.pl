# check.pl -- create/tick/finish through Perl's DBD::SQLite
# (libdbd-sqlite3-perl); prints what tests/bindings/run.sh compares.
#   perl check.pl build/triggers
use strict;
use warnings;
use DBI;

my $ext = shift or die "usage: perl check.pl EXTENSION\n";
my $dbh = DBI->connect('dbi:SQLite:dbname=:memory:', '', '',
                       { RaiseError => 1, PrintError => 0, AutoCommit => 1 });
$dbh->sqlite_enable_load_extension(1);
$dbh->sqlite_load_extension($ext);
$dbh->sqlite_enable_load_extension(0);
$dbh->do('SELECT trigger_install()');
$dbh->do(q{INSERT INTO triggers(trigger_id, agent_id, instructions,
                                trigger_type, interval_ms, created_at)
           VALUES ('check', 'a1', 'Check the build', 'interval', 60000,
                   1767225600000)});
my ($run_id) = $dbh->selectrow_array(
  q{SELECT json_extract(value, '$.run_id')
    FROM json_each(trigger_run_due(1767225660000))});
my ($count) = $dbh->selectrow_array(
  q{SELECT json_extract(trigger_run_finish(?, 'success', NULL, ?),
                        '$.run_count')}, undef, $run_id, 1767225661000);
my ($status) = $dbh->selectrow_array(
  'SELECT status FROM trigger_runs WHERE run_id = ?', undef, $run_id);
my ($version) = $dbh->selectrow_array('SELECT trigger_version()');
print "version=$version\nrun_id=$run_id\nrun_count=$count\nstatus=$status\n";
$dbh->disconnect;
