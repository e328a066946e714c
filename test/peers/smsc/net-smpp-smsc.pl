#!/usr/bin/perl
# An SMSC built on Debian's libnet-smpp-perl (Net::SMPP), an SMPP implementation smskit neither
# wrote nor uses: the far end of the SMPP route's end-to-end tests.
#
#   net-smpp-smsc.pl --system-id ID --out FILE [--receipts both|text|tlv|none] [--stat DELIVRD]
#                    [--answer-delay-ms N] [--resend-receipts] [--many]
#                    [--ids hex|decimal] [--receipt-ids hex|decimal] [--receipts-on-next-bind]
#                    [--submit-status N]
#   (the password comes from SMSKIT_SMSC_PASSWORD)
#
# Listens on a free port on 127.0.0.1 and prints "listening <port>" on stdout; serves one
# connection at a time (with --many, every open connection at once, for several clients): accepts a transceiver bind with those credentials only, answers each
# submit_sm with an id, writes every PDU it received as a JSON line to FILE (short_message as
# hex, TLVs by numeric tag as hex), and after each submit_sm_resp sends a delivery receipt
# (deliver_sm, esm_class 0x04, the SMPP 3.4 Appendix B text and/or the receipted_message_id and
# message_state TLVs). Stops on unbind+EOF of the last connection only when killed.
# --answer-delay-ms holds each submit_sm_resp back after the submit is logged, so a client killed
# on seeing the log line dies with that submit unanswered (the crash tests' in-flight window).
# --resend-receipts keeps every receipt not yet acknowledged and, once its connection is gone,
# sends it again on the next bind, as an SMSC does when its client died before answering.
# --ids gives numeric message ids in that base in submit_sm_resp; --receipt-ids writes the same
# number in the receipt in that base (hex answers receipted in decimal, as some SMSCs do).
# --receipts-on-next-bind sends no receipt on the session that submitted: every receipt is kept
# and sent on the next bind after that session ends (the receipts of ended sessions an SMSC
# keeps for the account, which a client must still match after a restart).
# --submit-status N answers every submit_sm with command_status N and no id (e.g. 8,
# ESME_RSYSERR: an SMSC that is bound but failing, for the failover tests).
use strict;
use warnings;
use Getopt::Long;
use IO::Handle;
use JSON::PP;
use Net::SMPP;
use IO::Select;
use Scalar::Util qw(refaddr);
use Time::HiRes qw(usleep);

my ($system_id, $out, $receipts, $stat, $answer_delay_ms, $resend, $many) = ('smskit', undef, 'both', 'DELIVRD', 0, 0, 0);
my ($ids, $receipt_ids, $next_bind, $submit_status) = ('', '', 0, 0);
GetOptions('system-id=s' => \$system_id, 'out=s' => \$out, 'receipts=s' => \$receipts, 'stat=s' => \$stat,
           'answer-delay-ms=i' => \$answer_delay_ms, 'resend-receipts' => \$resend, 'many' => \$many,
           'ids=s' => \$ids, 'receipt-ids=s' => \$receipt_ids, 'receipts-on-next-bind' => \$next_bind,
           'submit-status=i' => \$submit_status)
  or die "usage: $0 --system-id ID --out FILE [--receipts both|text|tlv|none] [--stat WORD] [--answer-delay-ms N] [--resend-receipts]\n";
# A client killed mid-write must not kill the SMSC with it, nor fill the test's output: a
# connection that ends without an unbind is an expected event here.
$SIG{PIPE} = 'IGNORE';
$SIG{__WARN__} = sub { warn @_ unless $_[0] =~ /^premature eof reading from socket/ };
$receipt_ids ||= $ids;
my %unacknowledged;    # connection -> receipt seq -> [submit, id], with --resend-receipts
my @orphaned;          # [submit, id] of receipts whose connection closed unacknowledged
my %kept;              # connection -> [submit, id] of receipts held for the next bind (--receipts-on-next-bind)
die "--out FILE is required\n" unless defined $out;
my $password = $ENV{SMSKIT_SMSC_PASSWORD} // '';
my %message_state = (DELIVRD => 2, EXPIRED => 3, DELETED => 4, UNDELIV => 5, ACCEPTD => 6, UNKNOWN => 7, REJECTD => 8, ENROUTE => 1);

open(my $log, '>>', $out) or die "cannot write $out: $!\n";
$log->autoflush(1);
my $json = JSON::PP->new->canonical(1);
sub record { print $log $json->encode({@_}), "\n" }

my $listener = Net::SMPP->new_listen('127.0.0.1', port => 0, smpp_version => 0x34)
  or die "cannot listen: $!\n";
STDOUT->autoflush(1);
print "listening ", $listener->sockport, "\n";

my $next_id = 0;
my %bound;    # connection -> bound
my %number;   # connection -> its number, 1 for the first accepted (logged with each submit_sm)
my $connections = 0;
if ($many) {
  # Net::SMPP reads exactly one PDU per read_pdu (no buffer of its own), so select sees every PDU.
  my $select = IO::Select->new($listener);
  while (1) {
    for my $ready ($select->can_read) {
      if ($ready == $listener) { my $esme = $listener->accept; $select->add($esme) if $esme; next; }
      my $pdu = $ready->read_pdu;
      next if defined $pdu && handle($ready, $pdu);
      $select->remove($ready);
      closed($ready);
    }
  }
}
while (my $esme = $listener->accept) {
  while (defined(my $pdu = $esme->read_pdu)) { last unless handle($esme, $pdu) }
  closed($esme);
}

sub closed {
  my ($esme) = @_;
  my $pending = delete $unacknowledged{refaddr $esme} // {};
  push @orphaned, map { $pending->{$_} } sort { $a <=> $b } keys %$pending;
  push @orphaned, @{ delete $kept{refaddr $esme} // [] };
  delete $bound{refaddr $esme};
  close $esme;
}

sub tlvs_of {
  my ($pdu) = @_;
  my %tlvs;
  for my $key (keys %$pdu) {
    next unless $key =~ /^\d+$/;
    $tlvs{sprintf('0x%04x', $key)} = unpack('H*', $pdu->{$key});
  }
  return \%tlvs;
}

# Answers one PDU; false once the client unbound.
sub handle {
  my ($esme, $pdu) = @_;
  my $cmd = $pdu->{cmd};
    if ($cmd == 0x00000009) {    # bind_transceiver
      my $ok = $pdu->{system_id} eq $system_id && $pdu->{password} eq $password;
      record(pdu => 'bind_transceiver', system_id => $pdu->{system_id}, system_type => $pdu->{system_type},
             interface_version => $pdu->{interface_version}, accepted => $ok ? JSON::PP::true : JSON::PP::false);
      $esme->bind_transceiver_resp(seq => $pdu->{seq}, system_id => 'net-smpp', status => $ok ? 0 : 0x0E);
      $bound{refaddr $esme} = $ok;
      if ($ok && ($resend || $next_bind)) {
        my @again = splice(@orphaned);
        send_receipt($esme, @$_) for @again;
      }
    } elsif ($cmd == 0x00000004) {    # submit_sm
      if (!$bound{refaddr $esme}) { $esme->submit_sm_resp(seq => $pdu->{seq}, message_id => '', status => 0x04); return 1; }
      if ($submit_status) {
        record(pdu => 'submit_sm', refused => $submit_status);
        $esme->submit_sm_resp(seq => $pdu->{seq}, message_id => '', status => $submit_status);
        return 1;
      }
      my $number = 0xA1B20000 + ++$next_id;    # hex letters, and more than 8 digits in decimal
      my $id = $ids eq 'hex' ? sprintf('%x', $number) : $ids eq 'decimal' ? "$number" : sprintf('perl-%06d', $next_id);
      my $receipt_id = $receipt_ids eq 'hex' ? sprintf('%x', $number) : $receipt_ids eq 'decimal' ? "$number" : $id;
      $number{refaddr $esme} //= ++$connections;
      record(pdu => 'submit_sm', message_id => $id, connection => $number{refaddr $esme}, service_type => $pdu->{service_type},
             source_addr => $pdu->{source_addr}, source_addr_ton => $pdu->{source_addr_ton}, source_addr_npi => $pdu->{source_addr_npi},
             destination_addr => $pdu->{destination_addr}, dest_addr_ton => $pdu->{dest_addr_ton}, dest_addr_npi => $pdu->{dest_addr_npi},
             esm_class => $pdu->{esm_class}, validity_period => $pdu->{validity_period},
             schedule_delivery_time => $pdu->{schedule_delivery_time}, registered_delivery => $pdu->{registered_delivery}, data_coding => $pdu->{data_coding},
             short_message => unpack('H*', $pdu->{short_message}), tlvs => tlvs_of($pdu));
      usleep($answer_delay_ms * 1000) if $answer_delay_ms > 0;
      $esme->submit_sm_resp(seq => $pdu->{seq}, message_id => $id);
      if ($pdu->{registered_delivery} & 0x03 and $receipts ne 'none') {
        if ($next_bind) { push @{ $kept{refaddr $esme} }, [$pdu, $receipt_id]; }
        else { send_receipt($esme, $pdu, $receipt_id); }
      }
    } elsif ($cmd == 0x80000005) {    # deliver_sm_resp
      record(pdu => 'deliver_sm_resp', seq => $pdu->{seq}, status => $pdu->{status});
      delete $unacknowledged{refaddr $esme}{$pdu->{seq}} if $pdu->{status} == 0;
    } elsif ($cmd == 0x00000015) {    # enquire_link
      $esme->enquire_link_resp(seq => $pdu->{seq});
    } elsif ($cmd == 0x00000006) {    # unbind
      record(pdu => 'unbind');
      $esme->unbind_resp(seq => $pdu->{seq});
      return 0;
    } elsif (!($cmd & 0x80000000)) {
      $esme->generic_nack(seq => $pdu->{seq}, status => 0x03);
    }
  return 1;
}

sub send_receipt {
  my ($esme, $submit, $id) = @_;
  my $dlvrd = $stat eq 'DELIVRD' ? '001' : '000';
  my $text = $receipts eq 'tlv' ? ''
    : "id:$id sub:001 dlvrd:$dlvrd submit date:2611270000 done date:2611270001 stat:$stat err:000 text:";
  my @tlvs = $receipts eq 'text' ? ()
    : (receipted_message_id => "$id\0", message_state => chr($message_state{$stat} // 7));
  my $seq = $esme->deliver_sm(
    source_addr_ton => $submit->{dest_addr_ton}, source_addr_npi => $submit->{dest_addr_npi},
    source_addr => $submit->{destination_addr},
    dest_addr_ton => $submit->{source_addr_ton}, dest_addr_npi => $submit->{source_addr_npi},
    destination_addr => $submit->{source_addr},
    esm_class => 0x04, data_coding => 0, short_message => $text, @tlvs, async => 1);
  $unacknowledged{refaddr $esme}{$seq} = [$submit, $id] if $resend || $next_bind;
  record(pdu => 'deliver_sm', seq => $seq, receipted => $id, stat => $stat);
}
