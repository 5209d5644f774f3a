package scenario_test

import (
	"fmt"

	"fabriclab/sim/scenario"
)

func ExampleParse() {
	doc := []byte(`name: small-incast
topology:
  kind: star
  hosts: 5
traffic:
  senders: 4
  bytes: 1MiB
`)
	s, err := scenario.Parse(doc, "small.yaml")
	if err != nil {
		fmt.Println(err)
		return
	}
	xoff, xon, headroom := s.PFCThresholds()
	fmt.Println(s.Endpoints(), "endpoints; receiver", s.IncastReceiver())
	fmt.Printf("pfc bytes: xoff %d, xon %d, headroom %d\n", xoff, xon, headroom)
	// Output:
	// 5 endpoints; receiver 4
	// pfc bytes: xoff 1972687, xon 1964331, headroom 124465
}

func ExampleParse_error() {
	doc := []byte(`topology:
  kind: star
  hosts: 1
network:
  buffr: 2MiB
`)
	_, err := scenario.Parse(doc, "small.yaml")
	fmt.Println(err)
	// Output:
	// small.yaml:5: network.buffr: unknown key; network takes mtu, buffer, flow_control, routing, cc, ecn, cnp_interval, clamp_target_rate, dcqcn, ibcc, pfc, rto, recovery, ack_every, buffer_model, switch_buffer, dt_alpha, classes, reroute_delay
	// small.yaml:3: topology.hosts: 1 is not allowed: a star needs at least 2 hosts (e.g. hosts: 9)
}

func ExampleParseWith() {
	data, _ := scenario.Builtin("incast")
	_, err := scenario.ParseWith(data, "incast.yaml", []string{"topology.hosts=0"})
	fmt.Println(err)
	// Output:
	// --set topology.hosts=0: topology.hosts: 0 is not allowed: a star needs at least 2 hosts (e.g. hosts: 9)
}
