#!/usr/bin/perl
# make-mmdb.pl DIR — writes DIR/city.mmdb and DIR/asn.mmdb, two tiny MaxMind
# databases in the GeoLite2 City and ASN layouts, for tests of parapet's
# optional city, coordinate and organisation lookups (Debian's
# libmaxmind-db-writer-perl).
use strict;
use warnings;
use MaxMind::DB::Writer::Tree;

my $dir = shift or die "usage: make-mmdb.pl DIR\n";

my $city = MaxMind::DB::Writer::Tree->new(
    ip_version => 6, record_size => 24, database_type => 'GeoLite2-City', remove_reserved_networks => 0,
    languages => ['en'], description => { en => 'parapet test city data' },
    map_key_type_callback => sub {
        my %t = (city => 'map', names => 'map', en => 'utf8_string', location => 'map',
                 latitude => 'double', longitude => 'double', country => 'map', iso_code => 'utf8_string');
        return $t{ $_[0] };
    },
);
$city->insert_network('198.51.100.0/24', {
    city => { names => { en => 'Amsterdam' } },
    location => { latitude => 52.37, longitude => 4.89 },
    country => { iso_code => 'NL' } });
$city->insert_network('2001:db8:beef::/48', {
    city => { names => { en => 'Berlin' } },
    location => { latitude => 52.52, longitude => 13.40 },
    country => { iso_code => 'DE' } });
open my $fh, '>:raw', "$dir/city.mmdb" or die $!;
$city->write_tree($fh);
close $fh;

my $asn = MaxMind::DB::Writer::Tree->new(
    ip_version => 6, record_size => 24, database_type => 'GeoLite2-ASN', remove_reserved_networks => 0,
    languages => ['en'], description => { en => 'parapet test ASN data' },
    map_key_type_callback => sub {
        my %t = (autonomous_system_number => 'uint32', autonomous_system_organization => 'utf8_string');
        return $t{ $_[0] };
    },
);
$asn->insert_network('198.51.100.0/24',
    { autonomous_system_number => 64511, autonomous_system_organization => 'Example Transit' });
open $fh, '>:raw', "$dir/asn.mmdb" or die $!;
$asn->write_tree($fh);
close $fh;
