// conntime times TCP connection set-up for the lab's growth run (lab/growth.sh): how long connect()
// takes, from the SYN sent to the SYN-ACK received, to each of a few addresses in turn.
//
//	conntime serve ADDR...                   accept on each ADDR; close each connection at once
//	conntime dial -n N [-timeout D] NAME=ADDR...
//	                                          N rounds; in each, one new connection to each ADDR in turn
//
// dial prints one line per NAME: "connect NAME ADDR ok=<n> failed=<n> ns: <t1> <t2> ..." with every
// connection's set-up time in nanoseconds (time.Since around net.Dialer.Dial), in the order made.
// Each connection is closed with SO_LINGER 0 (a reset, no TIME_WAIT), so the next one is new to the
// kernel's connection tracking and its first packet meets the rules again. Only the addresses given
// are dialled; the lab gives addresses that exist only inside its own network namespaces.
package main

import (
	"flag"
	"fmt"
	"net"
	"os"
	"strings"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	switch os.Args[1] {
	case "serve":
		serve(os.Args[2:])
	case "dial":
		dial(os.Args[2:])
	default:
		usage()
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: conntime serve ADDR... | conntime dial -n N [-timeout D] NAME=ADDR...")
	os.Exit(2)
}

func serve(addrs []string) {
	if len(addrs) == 0 {
		usage()
	}
	for _, a := range addrs {
		l, err := net.Listen("tcp4", a)
		if err != nil {
			fmt.Fprintln(os.Stderr, "conntime serve:", err)
			os.Exit(1)
		}
		fmt.Println("listening", a)
		go func() {
			for {
				c, err := l.Accept()
				if err != nil {
					continue
				}
				c.Close()
			}
		}()
	}
	select {}
}

type target struct {
	name, addr string
	ns         []int64
	failed     int
}

func dial(args []string) {
	fs := flag.NewFlagSet("dial", flag.ExitOnError)
	n := fs.Int("n", 100, "rounds (one connection to each address per round)")
	timeout := fs.Duration("timeout", 2*time.Second, "give up on one connection after this long")
	_ = fs.Parse(args)
	if *n < 1 || *n > 100000 || fs.NArg() == 0 {
		usage()
	}
	var targets []*target
	for _, a := range fs.Args() {
		name, addr, ok := strings.Cut(a, "=")
		if !ok {
			usage()
		}
		targets = append(targets, &target{name: name, addr: addr})
	}
	d := net.Dialer{Timeout: *timeout}
	for i := 0; i < *n; i++ {
		for _, t := range targets {
			start := time.Now()
			c, err := d.Dial("tcp4", t.addr)
			took := time.Since(start)
			if err != nil {
				t.failed++
				continue
			}
			t.ns = append(t.ns, took.Nanoseconds())
			c.(*net.TCPConn).SetLinger(0)
			c.Close()
		}
	}
	failed := 0
	for _, t := range targets {
		var b strings.Builder
		fmt.Fprintf(&b, "connect %s %s ok=%d failed=%d ns:", t.name, t.addr, len(t.ns), t.failed)
		for _, v := range t.ns {
			fmt.Fprintf(&b, " %d", v)
		}
		fmt.Println(b.String())
		failed += t.failed
	}
	if failed > 0 {
		os.Exit(1)
	}
}
