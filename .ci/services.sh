#!/usr/bin/env bash
# Starts the local services the integration suites use, if they are not running (this machine
# kind starts them before a session; this only recovers ones that stopped).
up() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
up 5432 || pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start
up 6379 || redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log
up 4222 || start-stop-daemon --start --oknodo --background --exec /usr/sbin/nats-server -- -a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server -l /var/log/nats-server.log
for i in $(seq 1 20); do up 5432 && up 6379 && up 4222 && exit 0; sleep 0.5; done
exit 1
