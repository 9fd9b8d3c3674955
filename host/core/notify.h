/*
** notify.h -- the service manager's readiness protocol (sd_notify), spoken
** by the host itself, no libsystemd: a datagram of "KEY=VALUE" lines sent
** to the AF_UNIX socket NOTIFY_SOCKET names (a path, or "@name" for an
** abstract one). run and serve send READY=1 once they serve (databases
** open, --http listening, before the first claim), STOPPING=1 when a
** stop signal arrives, and, when WATCHDOG_USEC is set (for this pid, if
** WATCHDOG_PID says which), WATCHDOG=1 every half of it from the loop, so
** a loop that hangs is restarted by systemd (docs/host.md#running-it-as-a-service).
**
** Without NOTIFY_SOCKET nothing is sent and nothing costs. The variables
** are removed from the environment at notify_init, so the commands the
** host starts never speak for it.
*/
#ifndef HOST_NOTIFY_H
#define HOST_NOTIFY_H

#include <stdint.h>

/* Read and unset NOTIFY_SOCKET, WATCHDOG_USEC and WATCHDOG_PID. Returns
** 0, or -1 when NOTIFY_SOCKET is set but unusable (*err says why; the
** host goes on without notifying). */
int notify_init(char **err);
/* Send one message ("READY=1", "STOPPING=1", ...; lines joined by \n):
** 0 sent or nothing to send to, -1 when sending failed. */
int notify_send(const char *msg);
/* The watchdog's period in µs (half of WATCHDOG_USEC), 0 when none. */
int64_t notify_watchdog_us(void);
/* Send WATCHDOG=1 when its time has come (now: monotonic µs); returns
** when the next one is due (INT64_MAX without a watchdog). */
int64_t notify_watchdog(int64_t now);
/* Forget the socket (at exit). */
void notify_close(void);

#endif
