<%@ WebService Language="C#" Class="Peers.ServiceAPI" %>
