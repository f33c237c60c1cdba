// Command client is the load generator of bench/relay: it POSTs a body to
// a URL n times from each of c workers and prints the median round trip
// and the throughput as JSON. It runs on the host (the direct baseline)
// and, static, inside a machine (through the relay).
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"sync"
	"time"
)

func main() {
	url := flag.String("url", "", "URL to POST to")
	n := flag.Int("n", 500, "requests per worker")
	c := flag.Int("c", 1, "concurrent workers")
	size := flag.Int("size", 1024, "body bytes")
	flag.Parse()
	body := bytes.Repeat([]byte("x"), *size)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: *c}}
	var mu sync.Mutex
	var rtts []time.Duration
	var failed error
	var wg sync.WaitGroup
	start := time.Now()
	for range *c {
		wg.Add(1)
		go func() {
			defer wg.Done()
			local := make([]time.Duration, 0, *n)
			for range *n {
				t := time.Now()
				resp, err := client.Post(*url, "application/octet-stream", bytes.NewReader(body))
				if err == nil {
					got, _ := io.ReadAll(resp.Body)
					resp.Body.Close()
					if resp.StatusCode != 200 || len(got) != len(body) {
						err = fmt.Errorf("status %d, %d bytes", resp.StatusCode, len(got))
					}
				}
				if err != nil {
					mu.Lock()
					failed = err
					mu.Unlock()
					return
				}
				local = append(local, time.Since(t))
			}
			mu.Lock()
			rtts = append(rtts, local...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	if failed != nil {
		fmt.Fprintln(os.Stderr, "client:", failed)
		os.Exit(1)
	}
	slices.Sort(rtts)
	json.NewEncoder(os.Stdout).Encode(map[string]float64{
		"median_us":  float64(rtts[len(rtts)/2].Microseconds()),
		"per_second": float64(len(rtts)) / elapsed.Seconds(),
	})
}
