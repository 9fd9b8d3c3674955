/*
** sig.h -- signals of trigger-host. SIGTERM/SIGINT ask the loop to stop
** (counted: a second one means "stop now"), SIGCHLD says a child exited.
** Each handler writes one byte into a self-pipe whose read end the loop
** polls, so a signal always ends the current sleep. SIGPIPE is ignored
** (a closed stdout or child stdin shows up as EPIPE instead). Children
** start with the default dispositions of all four (shell.h).
*/
#ifndef HOST_SIG_H
#define HOST_SIG_H

int sig_init(void);       /* 0 ok, -1 errno */
int sig_fd(void);         /* read end of the self-pipe, for poll() */
void sig_drain(void);     /* empty the self-pipe after poll() */
int sig_stop_count(void); /* SIGTERM + SIGINT received so far */

#endif
