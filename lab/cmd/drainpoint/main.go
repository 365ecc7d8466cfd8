// drainpoint: the drain run's endpoint servers and client (lab/drain.sh), standard library only.
//
//	drainpoint serve NAME TCP-ADDR UDP-ADDR
//	    answers every line on a TCP connection and every UDP datagram with "NAME <what came>",
//	    and logs what it saw, one line per event, to stdout.
//	drainpoint client
//	    reads commands from stdin, one a line, each "<id> <verb> <args>", and prints one line per
//	    command, "<id> <what happened>":
//	      <id> hold ADDR       open the held TCP connection      -> <id> held local=... remote=...
//	                           (closing the one held before, if any)
//	      <id> send TEXT       a line on the held connection     -> <id> reply <line> | <id> error <err>
//	      <id> new ADDR TEXT   a new TCP connection, one line    -> <id> reply <line> local=... | <id> error <err>
//	      <id> udpopen ADDR    a connected UDP socket (kept)     -> <id> udpopen local=... remote=...
//	      <id> udp TEXT        a datagram on it, its answer      -> <id> reply <text> | <id> error <err>
//	    Every wait for an answer is 2 s.
package main

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"strings"
	"time"
)

const wait = 2 * time.Second

func logf(format string, a ...any) {
	fmt.Fprintf(os.Stdout, "%s %s\n", time.Now().UTC().Format(time.RFC3339Nano), fmt.Sprintf(format, a...))
}

func serve(name, tcpAddr, udpAddr string) error {
	ln, err := net.Listen("tcp", tcpAddr)
	if err != nil {
		return err
	}
	pc, err := net.ListenPacket("udp", udpAddr)
	if err != nil {
		return err
	}
	logf("%s listening tcp=%s udp=%s", name, ln.Addr(), pc.LocalAddr())
	go func() {
		buf := make([]byte, 2048)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				logf("udp error %v", err)
				return
			}
			text := strings.TrimSpace(string(buf[:n]))
			logf("udp recv from=%s %s", from, text)
			if _, err := pc.WriteTo([]byte(name+" "+text), from); err != nil {
				logf("udp send error to=%s %v", from, err)
			}
		}
	}()
	for {
		c, err := ln.Accept()
		if err != nil {
			return err
		}
		go func(c net.Conn) {
			defer c.Close()
			logf("tcp accept from=%s", c.RemoteAddr())
			r := bufio.NewScanner(c)
			for r.Scan() {
				logf("tcp recv from=%s %s", c.RemoteAddr(), r.Text())
				if _, err := fmt.Fprintf(c, "%s %s\n", name, r.Text()); err != nil {
					logf("tcp send error from=%s %v", c.RemoteAddr(), err)
					return
				}
			}
			logf("tcp close from=%s err=%v", c.RemoteAddr(), r.Err())
		}(c)
	}
}

func readLine(c net.Conn, r *bufio.Reader) (string, error) {
	if err := c.SetReadDeadline(time.Now().Add(wait)); err != nil {
		return "", err
	}
	line, err := r.ReadString('\n')
	if err != nil {
		return "", err
	}
	return strings.TrimSuffix(line, "\n"), nil
}

func client() {
	var held net.Conn
	var heldR *bufio.Reader
	var udp net.Conn
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		f := strings.SplitN(in.Text(), " ", 3)
		if len(f) < 2 {
			continue
		}
		id, verb, arg := f[0], f[1], ""
		if len(f) == 3 {
			arg = f[2]
		}
		out := func(format string, a ...any) { fmt.Printf("%s %s\n", id, fmt.Sprintf(format, a...)) }
		switch verb {
		case "hold":
			if held != nil {
				held.Close() // one held connection at a time: the last case's goes first
				held = nil
			}
			c, err := net.DialTimeout("tcp", arg, wait)
			if err != nil {
				out("error %v", err)
				continue
			}
			held, heldR = c, bufio.NewReader(c)
			out("held local=%s remote=%s", c.LocalAddr(), c.RemoteAddr())
		case "send":
			if held == nil {
				out("error no held connection")
				continue
			}
			if _, err := fmt.Fprintf(held, "%s\n", arg); err != nil {
				out("error %v", err)
				continue
			}
			if line, err := readLine(held, heldR); err != nil {
				out("error %v", err)
			} else {
				out("reply %s", line)
			}
		case "new":
			addr, text, _ := strings.Cut(arg, " ")
			c, err := net.DialTimeout("tcp", addr, wait)
			if err != nil {
				out("error %v", err)
				continue
			}
			if _, err := fmt.Fprintf(c, "%s\n", text); err != nil {
				out("error %v", err)
			} else if line, err := readLine(c, bufio.NewReader(c)); err != nil {
				out("error %v", err)
			} else {
				out("reply %s local=%s", line, c.LocalAddr())
			}
			c.Close()
		case "udpopen":
			if udp != nil {
				udp.Close()
				udp = nil
			}
			c, err := net.Dial("udp", arg)
			if err != nil {
				out("error %v", err)
				continue
			}
			udp = c
			out("udpopen local=%s remote=%s", c.LocalAddr(), c.RemoteAddr())
		case "udp":
			if udp == nil {
				out("error no UDP socket")
				continue
			}
			if _, err := udp.Write([]byte(arg)); err != nil {
				out("error %v", err)
				continue
			}
			buf := make([]byte, 2048)
			if err := udp.SetReadDeadline(time.Now().Add(wait)); err != nil {
				out("error %v", err)
				continue
			}
			if n, err := udp.Read(buf); err != nil {
				out("error %v", err)
			} else {
				out("reply %s", strings.TrimSpace(string(buf[:n])))
			}
		default:
			out("error unknown verb %q", verb)
		}
	}
}

func main() {
	if len(os.Args) == 5 && os.Args[1] == "serve" {
		if err := serve(os.Args[2], os.Args[3], os.Args[4]); err != nil {
			logf("serve error %v", err)
			os.Exit(1)
		}
		return
	}
	if len(os.Args) == 2 && os.Args[1] == "client" {
		client()
		return
	}
	fmt.Fprintln(os.Stderr, "usage: drainpoint serve NAME TCP-ADDR UDP-ADDR | drainpoint client")
	os.Exit(2)
}
